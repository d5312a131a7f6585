import { issueToFieldErrorWith } from '@csms/contract';
import type { FormRule } from 'antd';
import type { z } from 'zod';
import { vocabularyLookup } from '../../i18n';

/**
 * An antd form rule that validates one field with the contract's schema, so the console says
 * exactly what the server would (`issueToFieldErrorWith`, in the current language).
 */
export function zodRule(schema: z.ZodType, resource: string, field: string): FormRule {
  return ({ getFieldsValue }) => ({
    validator: async () => {
      const values: unknown = getFieldsValue(true);
      const result = schema.safeParse(values);
      if (result.success) return;
      const issue = result.error.issues.find((i) => i.path.join('.') === field);
      if (issue) throw new Error(issueToFieldErrorWith(vocabularyLookup(), resource, issue, values).msg);
    },
  });
}
