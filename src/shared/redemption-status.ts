/** Redemption code statuses: unused codes can be disabled and enabled again; used is final. */
export const REDEMPTION_STATUS = { unused: 1, disabled: 2, used: 3 } as const;
