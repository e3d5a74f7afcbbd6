/**
 * Token statuses, the reference's numbers, named once for the server (services/tokens,
 * the relay's token check) and the console's declaration (resources/tokens.ts). Users switch
 * between enabled and disabled; the server sets expired and exhausted. The record schema's
 * `status` enum lists the same numbers (tests/unit/schema-keywords.test.ts compares them).
 */
export const TOKEN_STATUS = { enabled: 1, disabled: 2, expired: 3, exhausted: 4 } as const;
