import { startFirstScreen } from "./first-fetch";

// The first screen's requests go out before the app's code loads, not after it renders (first-fetch.ts).
startFirstScreen();
void import("./mount").then(({ mountApp }) => mountApp());
