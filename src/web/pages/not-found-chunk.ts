/** The "not found" screen: its own chunk, as antd's Result is needed only when an address is wrong. */
import { componentChunk } from '../chunks';

export const NOT_FOUND_PAGE = componentChunk(() => import('./not-found-page'), 'NotFoundPage');
