import type { UiCatalogue } from '../zh-CN';

const apply: UiCatalogue['apply'] = {
  entity: 'application',
  formTitle: 'Apply to join as a charging operator',
  formIntro: 'Tell us about your company to join {platform}. The outcome of the review is sent to the e-mail you give.',
  licenseHint: 'A jpg or png image of at most 2 MB',
  agree: 'I have read and accept the',
  privacyAgreement: 'privacy agreement',
  captchaRefresh: 'Hard to read? Click to refresh',
  submit: 'Submit application',
  submitted: 'Application submitted',
  submittedTitle: 'Application submitted',
  submittedText: 'Your reference number is {referenceNo}; please keep it. The outcome of the review will be sent to {email}.',
  submittedNoMail:
    'Your reference number is {referenceNo}; please keep it. The confirmation mail could not be sent yet; you will still be told the outcome by e-mail.',
  another: 'Submit another application',
  toLogin: 'Back to sign-in',
  infoTitle: 'Applicant information',
  info: 'Details',
  approve: 'Approve',
  reject: 'Reject',
  approveTitle: 'Approve application {referenceNo}',
  approveHint:
    'The provider and its first administrator are created; the one-time password is mailed to the applicant and must be changed at the first sign-in.',
  approved: 'Approved: the administrator account has been created',
  rejectTitle: 'Reject application {referenceNo}',
  rejected: 'Rejected',
  passwordTitle: 'The mail could not be sent',
  passwordText: 'Tell the applicant the one-time password of administrator {username} (shown this once only): {password}',
  back: 'Back to the list',
  review: 'Review',
  years: '{n} year(s)',
};
export default apply;
