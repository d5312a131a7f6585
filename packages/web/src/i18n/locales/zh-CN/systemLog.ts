/** System log screen; field names come from the contract's vocabulary. */
export default {
  entity: '系统日志',
};
