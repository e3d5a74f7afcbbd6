/** What every sub-tab view of a section receives. */
import type { SectionModel } from '../settings-model';
import type { SectionForm } from '../use-section-form';

export interface SubTabProps {
  section: SectionModel;
  form: SectionForm;
  /** Loads the options again (after a server-side reset). */
  reload: () => void;
}
