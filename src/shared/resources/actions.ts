/**
 * Actions of a list: per row, on the selected rows (batch), and on the whole collection
 * (toolbar). Row and batch actions are one variant per `kind`, each carrying only the options
 * its runner reads (src/web/crud/use-action-runner.ts), so a misplaced option does not compile.
 */
import type { BodyValue, ConfirmDef, Conditions } from './common';
import type { DialogDef } from './forms';
import type { Label } from './label';

// ---------------------------------------------------------------- row actions

/** What every row action has, whatever its kind. */
interface RowActionBase {
  key: string;
  labelKey: Label;
  /** Asked before the action runs. */
  confirm?: ConfirmDef;
  danger?: boolean;
  visibleWhen?: Conditions;
  disabledWhen?: Conditions;
  /** Shown in the row's "more" menu instead of as a button. */
  inMenu?: boolean;
  minRole?: number;
  /**
   * A role field of the row: the action is offered only when the signed-in user outranks the
   * row (or is root), as the server allows — an administrator gets no actions on other
   * administrators or on root.
   */
  viewerOutranks?: string;
}

/** An action that reports success: `successKey` (default: a generic "done"), the row's fields filled in. */
interface Reported {
  successKey?: Label;
}

/** Opens the edit drawer. */
export interface EditActionDef extends RowActionBase {
  kind: 'edit';
}

/** Calls a named endpoint with `body`. */
export interface RequestActionDef extends RowActionBase, Reported {
  kind: 'request';
  endpoint: string;
  body?: Record<string, BodyValue>;
  /** The reply's fields are given to `successKey` (test time, balance) besides the row's. */
  withReply?: boolean;
}

/** A status-only update (`PUT <api>?status_only=true {id, status}`). */
export interface StatusActionDef extends RowActionBase, Reported {
  kind: 'status';
  status: number;
}

/** `DELETE <api><id>`. */
export interface DeleteActionDef extends RowActionBase, Reported {
  kind: 'delete';
}

/** Copies `template` filled from the row (`sk-{key}`; default `{id}`). */
export interface CopyActionDef extends RowActionBase, Reported {
  kind: 'copy';
  template?: string;
}

/**
 * Offers the values of the row's comma list `pickField` (default `models`), then calls the
 * endpoint with the picked one as query parameter `pickQuery` (default `value`): test with a model.
 */
export interface PickRequestActionDef extends RowActionBase, Reported {
  kind: 'pick-request';
  endpoint: string;
  pickField?: string;
  pickQuery?: string;
  /** The pick dialog's title (default the action's label). */
  pickTitleKey?: Label;
  /** The reply's fields are given to `successKey` besides the row's. */
  withReply?: boolean;
}

/** A form (`dialog`) prefilled from the row; its values are `{input: name}` in `body`. */
export interface DialogActionDef extends RowActionBase, Reported {
  kind: 'dialog';
  endpoint: string;
  body?: Record<string, BodyValue>;
  dialog: DialogDef;
}

/**
 * Reads the full record and sends it back to create, without the `omit` fields and named
 * `{name}` + `nameSuffixKey`.
 */
export interface DuplicateActionDef extends RowActionBase, Reported {
  kind: 'duplicate';
  omit?: string[];
  nameSuffixKey?: Label;
  /** The record could not be read. */
  notFoundKey?: Label;
  /** The create failed; the error follows. */
  failedKey?: Label;
}

/** Opens one of the site's saved chat links with the row's `keyField` (default `key`) put in. */
export interface ChatLinkActionDef extends RowActionBase {
  kind: 'chat-link';
  keyField?: string;
  /** The title of the choice offered when several chats are saved. */
  pickTitleKey: Label;
}

/** A row action: its kind's variant. */
export type RowActionDef = EditActionDef | RequestActionDef | StatusActionDef | DeleteActionDef | CopyActionDef | PickRequestActionDef | DialogActionDef | DuplicateActionDef | ChatLinkActionDef;

// ---------------------------------------------------------------- batch actions

/** What every batch action has. */
interface BatchActionBase {
  key: string;
  labelKey: Label;
  confirm?: ConfirmDef;
  danger?: boolean;
  minRole?: number;
  /** Message when nothing is selected. */
  emptySelectionKey: Label;
  successKey?: Label;
}

/** Calls a named endpoint with `body` (use `{selected: 'id'}`). */
export interface BatchRequestDef extends BatchActionBase {
  kind: 'request';
  endpoint: string;
  body?: Record<string, BodyValue>;
}

/** Copies the selected rows, one per line: each as `template` (`{name}    sk-{key}`), else its `field` (default `id`). */
export interface BatchCopyDef extends BatchActionBase {
  kind: 'copy';
  template?: string;
  field?: string;
}

/** Asks a form (`dialog`) first; its values are `{input: name}` in `body`. */
export interface BatchDialogDef extends BatchActionBase {
  kind: 'dialog';
  endpoint: string;
  body?: Record<string, BodyValue>;
  dialog: DialogDef;
}

/** A batch action: its kind's variant. */
export type BatchActionDef = BatchRequestDef | BatchCopyDef | BatchDialogDef;

// ---------------------------------------------------------------- toolbar actions

/** A button of the list's toolbar acting on the whole collection (test all, delete disabled). */
export interface ToolbarActionDef {
  key: string;
  kind: 'request';
  labelKey: Label;
  endpoint: string;
  body?: Record<string, BodyValue>;
  confirm?: ConfirmDef;
  danger?: boolean;
  minRole?: number;
  /** The success message; the reply's data is given as `{{data}}`. */
  successKey?: Label;
}
