import type { Strings } from './areas/strings.js';

/**
 * The vocabulary the pages drawn without antd need (the sign-in page's fields, the titles of the
 * drivers' agreement pages, the language names, the validation messages), in a module of its own
 * so that those pages fetch only this much of it; the whole vocabulary (./zh-CN.ts, ./en-US.ts)
 * includes it.
 */
export const signInZh = {
  fields: {
    auth: {
      username: '账号',
      password: '密码',
      code: '验证码',
      uuid: '验证码编号',
      oldPwd: '旧密码',
      newPwd: '新密码',
      confirmNewPwd: '确认密码',
      userName: '用户名',
    },
    provider: {
      disclaimer: '免责声明',
      privacyAgreement: '隐私协议',
    },
  },
  enums: {
    language: { zh: '中文', en: 'English' },
  },
  validation: {
    required: '请输入{field}',
    tooShort: '{field}长度不能少于 {min} 个字符',
    tooLong: '{field}长度不能超过 {max} 个字符',
    tooSmall: '{field}不能小于 {min}',
    tooBig: '{field}不能大于 {max}',
    invalidEmail: '{field}不是有效的邮箱地址',
    invalidFormat: '{field}格式不正确',
    invalidOption: '{field}的取值无效',
    invalidType: '{field}类型不正确',
    unknownField: '不允许的字段：{field}',
    passwordMismatch: '两次输入密码不一致!',
    passwordClasses: '{field}必须包含{classes}',
    passwordClassesSome: '{field}必须至少包含以下字符中的 {n} 类：{classes}',
    passwordCommon: '{field}是最常用的密码之一，请换一个',
    listSeparator: '、',
    pageSize: '{field}只能是 10、20、50、300',
    pageSizeLong: '{field}只能是 10、20、50、300、1000',
    badCharacter: '{field}包含不允许的字符（空字符或无效的 Unicode）',
    recipientsRequired: '请选择接收角色或填写接收用户',
  },
};

export const signInEn: Strings<typeof signInZh> = {
  fields: {
    auth: {
      username: 'Account',
      password: 'Password',
      code: 'Captcha',
      uuid: 'Captcha ID',
      oldPwd: 'Old password',
      newPwd: 'New password',
      confirmNewPwd: 'Confirm password',
      userName: 'Username',
    },
    provider: {
      disclaimer: 'Disclaimer',
      privacyAgreement: 'Privacy agreement',
    },
  },
  enums: {
    language: { zh: '中文', en: 'English' },
  },
  validation: {
    required: '{field} is required',
    tooShort: '{field} must be at least {min} characters',
    tooLong: '{field} must be at most {max} characters',
    tooSmall: '{field} must be at least {min}',
    tooBig: '{field} must be at most {max}',
    invalidEmail: '{field} is not a valid email address',
    invalidFormat: '{field} is not in the right format',
    invalidOption: '{field} must be one of the offered values',
    invalidType: '{field} has the wrong type',
    unknownField: 'Field not allowed: {field}',
    passwordMismatch: 'The two passwords do not match!',
    passwordClasses: '{field} must contain {classes}',
    passwordClassesSome: '{field} must contain at least {n} of: {classes}',
    passwordCommon: '{field} is one of the most commonly used passwords; choose another',
    listSeparator: ', ',
    pageSize: '{field} must be 10, 20, 50 or 300',
    pageSizeLong: '{field} must be 10, 20, 50, 300 or 1000',
    badCharacter: '{field} contains a character that is not allowed (NUL or broken Unicode)',
    recipientsRequired: 'Choose recipient roles or enter recipient users',
  },
};
