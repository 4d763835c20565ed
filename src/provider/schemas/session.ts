import { z } from 'zod';

// docs/provider-contract.md §4.2, §5.3 and §OP-6.
/** The client-generated secret: 25 to 35 characters (the reference flow uses 30 alphanumerics). */
export const clientSecret = z
  .string()
  .regex(/^[A-Za-z0-9]{25,35}$/, 'the client secret must be 25 to 35 letters and digits');

export const sessionKey = z.object({ apiKey: z.string().min(1), authenticatedAs: z.unknown().nullable() });
