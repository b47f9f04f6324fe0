import { useEffect, useState } from "react";

/** A strong password for an admin's reset: 20 random characters from every class the rule asks for. */
export const generatePassword = () => {
  const sets = ["ABCDEFGHJKLMNPQRSTUVWXYZ", "abcdefghijkmnopqrstuvwxyz", "23456789", "!#%+-=?@_"];
  const random = new Uint32Array(20);
  crypto.getRandomValues(random);
  return Array.from(random, (value, index) => {
    const set = sets[index % sets.length] ?? "";
    return set[value % set.length];
  }).join("");
};

/** Waits for the user to stop typing before asking the server (search as you type). */
export const useDebounced = <T>(value: T, ms: number) => {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
};
