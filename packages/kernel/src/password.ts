import { hash, verify } from "@node-rs/argon2";

// OWASP's argon2id baseline (m=19 MiB, t=2, p=1): strong, and ~20 ms per hash on our machines.
const OPTIONS = {
  algorithm: 2 /* Algorithm.Argon2id (a const enum we cannot import) */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export const hashPassword = (password: string): Promise<string> => hash(password, OPTIONS);

/** Constant-time check; false (never a throw) for a malformed stored hash. */
export const verifyPassword = async (storedHash: string, password: string): Promise<boolean> => {
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
};

/** Burns the same time as a real verify, so unknown emails are not distinguishable by timing. */
let dummyHash: Promise<string> | undefined;
export const verifyAgainstDummy = async (password: string): Promise<false> => {
  dummyHash ??= hashPassword("dummy-password-for-timing");
  await verifyPassword(await dummyHash, password);
  return false;
};
