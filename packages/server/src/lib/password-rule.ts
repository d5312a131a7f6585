import { randomBytes } from 'node:crypto';
import { Code, fieldLabel, issueToFieldError, passwordSchema, translate, type Lang, type PasswordPolicy } from '@csms/contract';
import { dictionary } from '@zxcvbn-ts/language-common';
import { AppError } from '../http/errors.js';

/**
 * The most common passwords, refused whatever the configured rule: the first 1,000 of the ranked
 * list that zxcvbn-ts maintains (`@zxcvbn-ts/language-common`, "passwords-common", drawn from
 * leaked-password corpora), compared regardless of case.
 */
const COMMON = new Set(dictionary['passwords-common'].slice(0, 1000));

export const isCommonPassword = (password: string) => COMMON.has(password.toLowerCase());

/** Operators' passwords under the configured policy (README "Configuration"). */
export function createPasswordRule(policy: PasswordPolicy) {
  const schema = passwordSchema(policy);

  /** What is wrong with `value` as the `field` of `resource`, in `lang` (naming the field and the rule), or null. */
  function problem(lang: Lang, resource: string, field: string, value: string): string | null {
    const r = schema.safeParse(value);
    if (!r.success) return issueToFieldError(lang, resource, { ...r.error.issues[0]!, path: [field] }, { [field]: value }).msg;
    if (isCommonPassword(value)) return translate(lang, 'validation.passwordCommon', { field: fieldLabel(lang, resource, field) });
    return null;
  }

  return {
    policy,
    problem,
    /** Bad input: a 400 naming the field, before anything changes. */
    check(lang: Lang, resource: string, field: string, value: string): void {
      const msg = problem(lang, resource, field, value);
      if (msg !== null) throw new AppError(Code.BAD_REQUEST, '', { msg }, field);
    },
    /** A random password that meets the rule: the first administrator's when none is configured. */
    generate(): string {
      const length = Math.max(12, policy.minLength);
      // base64url holds lower, upper, digit and two symbols; a few draws meet any class rule.
      for (let i = 0; i < 1000; i++) {
        const candidate = randomBytes(length).toString('base64url').slice(0, length);
        if (problem('en', 'auth', 'password', candidate) === null) return candidate;
      }
      throw new Error('could not generate a password that meets the password policy');
    },
  };
}

export type PasswordRule = ReturnType<typeof createPasswordRule>;
