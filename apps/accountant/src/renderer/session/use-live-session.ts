import { useEffect, useRef } from "react";
import type { HisobBridge, SessionInfo } from "../../shared/bridge";
import { graphqlSocketUrl, type SignedOutReason, startLiveSession } from "./live-session";

/** Listens for the session's end while the app is signed in (both hosts); forgets the tokens when it comes. */
export const useLiveSession = (
  bridge: HisobBridge,
  session: SessionInfo,
  serverUrl: string | null,
  onSignedOut: (reason: SignedOutReason) => void,
) => {
  const latest = useRef(onSignedOut);
  latest.current = onSignedOut;
  useEffect(() => {
    if (serverUrl === null) return;
    return startLiveSession({
      url: graphqlSocketUrl(serverUrl),
      accessToken: () => bridge.accessToken(),
      sessionId: session.user.sid,
      onSignedOut: (reason) => {
        void bridge.forgetSession().finally(() => latest.current(reason));
      },
    });
  }, [bridge, session.user.sid, serverUrl]);
};
