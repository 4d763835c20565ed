/** The sandbox's published master credentials (src/sandbox): never used against a real provider. */
export const SANDBOX_CREDENTIALS = {
  apiKey: 'AK-SANDBOX-MASTER',
  secretKey: 'SK-SANDBOX-MASTER-SECRET-0001',
  accountId: 'AC_SANDBOXMASTER',
} as const;
