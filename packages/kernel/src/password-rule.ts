/* The password rule, apart from hashing: the apps check it in the browser with the same code. */

/** The password rule: 10–256 characters, not all of one character class. */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;
export const checkPasswordStrength = (password: string): string | null => {
  if (password.length < PASSWORD_MIN_LENGTH) return `must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH) return `must be at most ${PASSWORD_MAX_LENGTH} characters`;
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((re) => re.test(password)).length;
  if (classes < 2) return "must mix at least two of: lower case, upper case, digits, symbols";
  return null;
};
