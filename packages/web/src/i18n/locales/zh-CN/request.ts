/** Transport failures of the API client (spec §8). */
export default {
  network: '后端接口连接异常',
  timeout: '系统接口请求超时',
  httpStatus: '系统接口 {path} {status} 异常',
  unknown: '未知错误，请反馈给管理员',
  downloadFailed: '下载文件出现错误，请联系管理员！',
};
