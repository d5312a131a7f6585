/** Organisations screen; field names come from the contract's vocabulary. */
export default {
  entity: '组织',
};
