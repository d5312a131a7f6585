import type { Strings } from './strings.js';
import type { applyZh } from './apply.js';

export const applyEn: Strings<typeof applyZh> = {
  fields: {
    apply: {
      referenceNo: 'Reference number',
      companyName: 'Company name',
      contact: 'Contact person',
      phone: 'Phone',
      email: 'E-mail',
      licenseNumber: 'Business licence number',
      licenseImage: 'Business licence image',
      licenseImageUrl: 'Business licence image',
      address: 'Company address',
      expectedPoints: 'Expected charge points',
      expectedStations: 'Expected stations',
      remark: 'Remark',
      agreed: 'Privacy agreement',
      code: 'Captcha',
      uuid: 'Captcha id',
      status: 'Review status',
      ip: 'IP address',
      reviewerName: 'Reviewer',
      rejectReason: 'Reason for rejection',
      reason: 'Reason for rejection',
      providerName: 'Provider',
      username: 'Administrator account',
      validity: 'Validity',
      authCount: 'Authorized count',
      expirationTime: 'Expiration time',
      reviewTime: 'Reviewed at',
      createTime: 'Applied at',
      text: 'Company, contact, phone or e-mail',
      file: 'Business licence image',
    },
  },
  enums: {
    applyStatus: { pending: 'Pending review', approved: 'Approved', rejected: 'Rejected' },
  },
  exportSource: {},
  operation: { applySubmit: 'Submit application', reject: 'Reject' },
  errors: {
    apply: {
      tooManyFromAddress: 'Too many applications from this network, please try again in {minutes} minutes',
      tooManyForEmail: 'Too many applications for this e-mail, please try again in {minutes} minutes',
      tooManyUploads: 'Too many uploads, please try again in {minutes} minutes',
      licenseImageInvalid: 'The business licence image is not valid, please upload it again',
      noPlatform: 'The platform is not set up yet; applications are not possible',
      alreadyDecided: 'Application {referenceNo} has already been reviewed ({status}) and cannot be reviewed again',
      usernameTaken: 'Username "{name}" already exists',
      pointLimit: 'Provider "{name}" is authorized for {count} charge points, all in use: no more can be added',
      submittedSubject: 'Application received - {referenceNo}',
      submittedBody:
        'Dear {contact},\n\nWe have received the application of "{companyName}" to join the platform, reference number {referenceNo}. You will be told the outcome by e-mail.\n\n{platform}',
      approvedSubject: 'Application approved - {referenceNo}',
      approvedBody:
        'Dear {contact},\n\nThe application of "{companyName}" ({referenceNo}) has been approved.\nThe provider is valid until {expires}, for {authCount} charge points.\n\nBack-office account: {username}\nOne-time password: {password}\nYou must change the password at your first sign-in.\n\n{platform}',
      rejectedSubject: 'Application not approved - {referenceNo}',
      rejectedBody:
        'Dear {contact},\n\nWe are sorry: the application of "{companyName}" ({referenceNo}) has not been approved.\nReason: {reason}\n\n{platform}',
      firstRoleName: 'Provider administrator',
      mailFailed: 'Done, but the mail could not be sent: please tell the applicant yourself',
    },
  },
  validation: {
    applyAgreement: 'Please read and accept the privacy agreement',
  },
};
