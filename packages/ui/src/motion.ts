/*
 * Ant Design's motions (rc-motion) end when their element sends `transitionend`. A transition that is
 * cancelled sends `transitioncancel` instead, and then the motion never ends: its element keeps its
 * `-appear-active` (or enter/leave) class and the motion's state for good. It happens whenever a
 * transition is turned back before it moved, e.g. a Segmented switched to "Table" and at once back to
 * "Chart": the thumb stays mounted with its motion classes, and the selected item never gets its own
 * class back (docs/decisions/0092-motions-that-end.md).
 *
 * This ends such a motion as a finished one ends: when a transition of an element in a motion's active
 * step is cancelled and nothing is left running on it, the element is sent the `transitionend` that
 * rc-motion waits for. A transition replaced by a new one (still running) is left to finish itself.
 */

/** The class rc-motion puts on an element while its transition runs (`<motion>-appear-active`, …). */
const ACTIVE_MOTION = /-(appear|enter|leave)-active(\s|$)/;

/** Whether a cancelled transition on `element` left a motion waiting for an end that will not come. */
export const motionLeftWaiting = (element: Element): boolean =>
  ACTIVE_MOTION.test(element.getAttribute("class") ?? "") &&
  (element.getAnimations?.() ?? []).every((animation) => animation.playState !== "running");

const endCancelled = (event: Event) => {
  const { target } = event;
  if (!(target instanceof Element) || !(event instanceof TransitionEvent) || !motionLeftWaiting(target))
    return;
  target.dispatchEvent(
    new TransitionEvent("transitionend", {
      propertyName: event.propertyName,
      elapsedTime: event.elapsedTime,
      pseudoElement: event.pseudoElement,
    }),
  );
};

let installed = false;

/** Installs the listener once for the whole document (the apps' entries call it before rendering). */
export const endCancelledMotions = (root: Document = document) => {
  if (installed) return;
  installed = true;
  root.addEventListener("transitioncancel", endCancelled, true);
};
