/** Public disclaimer and privacy-agreement pages for drivers. */
export default {
  empty: '该运营商尚未填写此内容',
  notFound: '找不到该运营商',
};
