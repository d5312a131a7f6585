import { z } from 'zod';

import { passwordClasses, passwordMaxLength, passwordMinLength, type PasswordClass } from './password-limits.js';

export * from './password-limits.js';

/**
 * The operators' password rule the server enforces (`CSMS_PASSWORD_MIN_LENGTH`,
 * `CSMS_PASSWORD_CLASSES`) and the console learns from the user info: at least `minLength`
 * characters and at least `minClasses` of `classes`.
 */
export const passwordPolicy = z.object({
  minLength: z.number().int(),
  classes: z.array(z.enum(passwordClasses)),
  minClasses: z.number().int(),
});
export type PasswordPolicy = z.infer<typeof passwordPolicy>;

export const defaultPasswordPolicy: PasswordPolicy = { minLength: passwordMinLength, classes: [], minClasses: 0 };

// Unicode classes, so that an accented or full-width letter counts as the letter it is; a CJK
// character (a letter without case) counts as none of them.
const classPattern: Record<PasswordClass, RegExp> = {
  lower: /\p{Ll}/u,
  upper: /\p{Lu}/u,
  digit: /\p{Nd}/u,
  symbol: /[^\p{L}\p{N}]/u,
};

/**
 * A password field under the policy. Its messages name the field and the rule in the caller's
 * language through `issueToFieldError`: the length as any string's, the classes as
 * `validation.passwordClasses` (all of them) or `validation.passwordClassesSome` (n of them).
 */
export function passwordSchema(policy: PasswordPolicy = defaultPasswordPolicy) {
  return z
    .string()
    .min(Math.max(policy.minLength, passwordMinLength))
    .max(passwordMaxLength)
    .superRefine((value, ctx) => {
      const held = policy.classes.filter((c) => classPattern[c].test(value)).length;
      if (held >= policy.minClasses) return;
      const all = policy.minClasses >= policy.classes.length;
      ctx.addIssue({
        code: 'custom',
        message: all ? 'validation.passwordClasses' : 'validation.passwordClassesSome',
        // A list of vocabulary keys, translated and joined in the caller's language.
        params: { classes: policy.classes.map((c) => `enums.passwordClass.${c}`), n: policy.minClasses },
      });
    });
}
