/**
 * What every third-party sign-in provider has in common: an external id stored in one
 * column of `users`, the messages that name the provider, an on/off option, and (for the
 * code-based ones) the exchange of a one-time code for the identity behind it.
 */
import type { AppContext } from '../../context';
import type { OptionsService } from '../options/options.service';

/** The `users` column holding each provider's external id. */
export type BindingColumn = 'github_id' | 'oidc_id' | 'linux_do_id' | 'wechat_id' | 'telegram_id';

/** A person as a provider reports them. */
export interface ExternalIdentity {
  /** Stable id stored in the binding column (GitHub login, OIDC `sub`, numeric ids as text). */
  id: string;
  /** A username the provider suggests for a new account, if any. */
  username?: string;
  /** Display name for a new account; may be empty. */
  displayName: string;
  email?: string;
}

/** A provider's place in `users` and its refusals, in the reference's words. */
export interface Binding {
  column: BindingColumn;
  /** The administrator has the provider switched off. */
  disabledMessage: string;
  /** The external id already belongs to an account (deleted ones included). */
  alreadyBoundMessage: string;
  enabled(options: OptionsService): boolean;
}

/** The one-time code from the provider's redirect and what the exchange may need with it. */
export interface CodeGrant {
  code: string;
  /** `<scheme>://<host>` of the callback request, for providers whose redirect_uri echoes it. */
  requestOrigin: string;
}

/** A provider that turns a one-time code into an identity (GitHub, OIDC, LinuxDO, WeChat). */
export interface CodeProvider extends Binding {
  /** Route segment `/api/oauth/<id>` and prefix of generated usernames `<id>_<n>`. */
  id: 'github' | 'oidc' | 'linuxdo' | 'wechat';
  /** Whether the provider's own `error`/`error_description` redirect parameters are reported first. */
  reportsQueryErrors: boolean;
  /** Calls the provider; failures are AppErrors with the provider's messages. */
  exchange(ctx: AppContext, grant: CodeGrant): Promise<ExternalIdentity>;
}
