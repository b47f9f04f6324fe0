import { useEffect, useState } from "react";

/** A tiny router over the History API: /admin/<page>, deep links and reloads work (the server falls back to index.html). */
export const BASE = "/admin";

export const navigate = (path: string) => {
  window.history.pushState(null, "", `${BASE}${path}`);
  window.dispatchEvent(new PopStateEvent("popstate"));
};

const read = () => window.location.pathname.slice(BASE.length).replace(/\/$/, "") || "/";

export const usePath = (): string => {
  const [path, setPath] = useState(read);
  useEffect(() => {
    const onChange = () => setPath(read());
    window.addEventListener("popstate", onChange);
    return () => window.removeEventListener("popstate", onChange);
  }, []);
  return path;
};
