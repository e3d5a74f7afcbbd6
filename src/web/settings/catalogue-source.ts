/**
 * The options catalogue as the console sees it: every `schemas/options/*.json` file, bundled
 * at build time, so a key added to a schema file reaches its settings tab with no other edit.
 */
import { buildCatalogue, type Catalogue, type OptionSection } from '../../shared/options/catalogue';

const files = import.meta.glob<OptionSection>('/schemas/options/*.json', { eager: true, import: 'default' });

/** The section files in the catalogue's order (tab, then `x-order`), checked by the shared builder. */
export const CATALOGUE: Catalogue = buildCatalogue(Object.values(files));
