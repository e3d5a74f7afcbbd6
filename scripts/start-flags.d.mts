/** The Node flags `npm start` runs the server with (package.json's start script). */
export function startNodeFlags(): string[];
