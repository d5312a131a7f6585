import type { AreaVocabulary } from './strings.js';

/** Applications to join the platform (issue 21): the Chinese original. */
export const applyZh = {
  fields: {
    apply: {
      referenceNo: '申请编号',
      companyName: '公司名称',
      contact: '联系人',
      phone: '联系电话',
      email: '邮箱',
      licenseNumber: '营业执照号',
      licenseImage: '营业执照图片',
      licenseImageUrl: '营业执照图片',
      address: '公司地址',
      expectedPoints: '预计充电桩数量',
      expectedStations: '预计充电站数量',
      remark: '备注',
      agreed: '隐私协议',
      code: '验证码',
      uuid: '验证码标识',
      status: '审核状态',
      ip: 'IP地址',
      reviewerName: '审核人',
      rejectReason: '驳回原因',
      reason: '驳回原因',
      providerName: '运营商',
      username: '管理员账号',
      validity: '有效期',
      authCount: '授权数量',
      expirationTime: '到期时间',
      reviewTime: '审核时间',
      createTime: '申请时间',
      text: '公司、联系人、电话或邮箱',
      file: '营业执照图片',
    },
  },
  enums: {
    applyStatus: { pending: '待审核', approved: '已通过', rejected: '已驳回' },
  },
  exportSource: {},
  operation: { applySubmit: '提交入驻申请', reject: '驳回' },
  errors: {
    apply: {
      tooManyFromAddress: '该网络提交的申请过多，请{minutes}分钟后再试',
      tooManyForEmail: '该邮箱提交的申请过多，请{minutes}分钟后再试',
      tooManyUploads: '上传过于频繁，请{minutes}分钟后再试',
      licenseImageInvalid: '营业执照图片无效，请重新上传',
      noPlatform: '平台尚未设置，暂不能申请',
      alreadyDecided: '申请 {referenceNo} 已审核（{status}），不能重复审核',
      usernameTaken: '账号“{name}”已存在',
      pointLimit: '运营商“{name}”的授权数量为{count}个充电桩，已满，不能再添加',
      submittedSubject: '入驻申请已收到 - {referenceNo}',
      submittedBody:
        '{contact}，您好：\n\n我们已收到“{companyName}”的入驻申请，申请编号 {referenceNo}。审核结果将通过邮件通知您。\n\n{platform}',
      approvedSubject: '入驻申请已通过 - {referenceNo}',
      approvedBody:
        '{contact}，您好：\n\n“{companyName}”的入驻申请（{referenceNo}）已通过。\n运营商有效期至 {expires}，授权充电桩数量 {authCount}。\n\n后台账号：{username}\n一次性密码：{password}\n首次登录后须修改密码。\n\n{platform}',
      rejectedSubject: '入驻申请未通过 - {referenceNo}',
      rejectedBody: '{contact}，您好：\n\n很抱歉，“{companyName}”的入驻申请（{referenceNo}）未通过。\n原因：{reason}\n\n{platform}',
      firstRoleName: '运营商管理员',
      mailFailed: '已完成，但邮件发送失败，请另行通知申请人',
    },
  },
  validation: {
    applyAgreement: '请阅读并同意隐私协议',
  },
} satisfies AreaVocabulary;
