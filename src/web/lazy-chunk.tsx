/**
 * A component from a `Chunk`: lazily loaded like `React.lazy`, but rendered at once, without
 * suspending, when the chunk is already in (the entry preloads the screen of the address it
 * opens on, `main.tsx`), so the first screen shows in the first render.
 */
import { lazy, useState, type ComponentType } from 'react';
import type { Chunk } from './chunks';

export function lazyChunk<P extends object>(c: Chunk<ComponentType<P>>): ComponentType<P> {
  const Lazy = lazy(async () => ({ default: await c.load() }));
  return function ChunkComponent(props: P) {
    // Chosen once per mount: switching from the lazy wrapper to the loaded component later
    // would remount the screen and lose its state.
    const [Loaded] = useState(() => c.value);
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  };
}
