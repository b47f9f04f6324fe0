import { type ReactNode, useEffect, useRef } from "react";
import { Link, useLocation } from "react-router-dom";

/*
 * Drill-down: a figure is a link to the entries behind it. Before leaving, the report remembers how far
 * it was scrolled under its history entry's key; Back returns to that entry (its filters are in its
 * address) and the report scrolls there again once its figures are on screen.
 */

const scrollKey = (key: string) => `hisob:report-scroll:${key}`;

export const DrillLink = (props: { to: string; children: ReactNode; testId?: string; label?: string }) => {
  const location = useLocation();
  return (
    <Link
      to={props.to}
      data-testid={props.testId}
      aria-label={props.label}
      onClick={() => sessionStorage.setItem(scrollKey(location.key), String(window.scrollY))}
    >
      {props.children}
    </Link>
  );
};

/** Scrolls back to where the report was left, once, when `ready` (its figures drawn). */
export const useRestoredScroll = (ready: boolean) => {
  const location = useLocation();
  const restored = useRef(false);
  useEffect(() => {
    if (!ready || restored.current) return;
    restored.current = true;
    const saved = sessionStorage.getItem(scrollKey(location.key));
    if (saved === null) return;
    sessionStorage.removeItem(scrollKey(location.key));
    // After the browser has laid out the figures (and the lazy charts' boxes, which have fixed heights).
    requestAnimationFrame(() => window.scrollTo(0, Number(saved)));
  }, [ready, location.key]);
};
