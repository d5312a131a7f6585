/** Image and file upload widgets (spec §5: the Chinese texts are the spec's own). */
export default {
  imageBadType: '文件格式不正确, 请上传{types}图片格式文件!',
  fileBadType: '文件格式不正确, 请上传{types}格式文件!',
  imageTooLarge: '上传头像图片大小不能超过 {n} MB!',
  fileTooLarge: '上传文件大小不能超过 {n} MB!',
  tooMany: '上传文件数量不能超过 {limit} 个!',
  imageFailed: '上传图片失败，请重试',
  fileFailed: '上传文件失败，请重试',
  imageUploading: '正在上传图片，请稍候...',
  fileUploading: '正在上传文件，请稍候...',
  upload: '上传',
  selectFile: '选取文件',
  tip: '请上传大小不超过 {n}MB、格式为 {types} 的文件',
  preview: '预览',
};
