import { hash, verify } from "@node-rs/argon2";

// argon2id with OWASP's minimum recommended cost (19 MiB, 2 iterations).
const options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (plain: string) => hash(plain, options);

export async function verifyPassword(stored: string | null, plain: string): Promise<boolean> {
  // Without a stored hash we still spend the time of a check, so timing does not reveal accounts.
  if (!stored) {
    await hash(plain, options);
    return false;
  }
  try {
    return await verify(stored, plain);
  } catch {
    return false;
  }
}
