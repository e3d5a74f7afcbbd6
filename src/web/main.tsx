/**
 * The entry: starts loading the screen the address shows (first import, see
 * `first-screen.ts`), then renders the console once that screen is in, so the first render
 * already shows it instead of a spinner while its chunk loads.
 */
import { firstScreenReady } from './first-screen';
import { renderConsole } from './console-root';

void firstScreenReady.then(renderConsole);
