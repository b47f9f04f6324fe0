import { createContext, useContext } from "react";
import type { OutputOf } from "./api";

/** The signed-in user (GET /account) and what they may do. */
export type Me = OutputOf<"profile.get">;

export const MeContext = createContext<Me | null>(null);

/** `can("users:create:all")`: hides or disables what the user may not do (the server refuses it anyway). */
export const useCan = () => {
  const me = useContext(MeContext);
  return (permission: string) => me?.permissions.includes(permission) === true;
};
export const useMe = () => useContext(MeContext);
