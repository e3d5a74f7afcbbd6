/** What a form widget may need to know about its form: create or edit, and the record id. */
import { createContext, useContext } from 'react';
import type { FormMode } from '../../shared/resources/forms';

export interface FormScope {
  mode: FormMode;
  id?: string | number;
}

export const FormScopeContext = createContext<FormScope>({ mode: 'create' });

export function useFormScope(): FormScope {
  return useContext(FormScopeContext);
}
