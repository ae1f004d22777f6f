/** The Access Token and Refresh Token cards and the Additional Information card of the Token Management screen. */
import { useId, type ReactNode } from 'react';
import { m } from '~/paraglide/messages.js';
import {
  CONNECTION_TEXTS,
  hasUnknownRefreshExpiry,
  timeRemainingText,
  tokenFacts,
  tokenSourceLabel,
  tokenState,
  tokenStateLabel,
  tokenTone,
  type TokenState,
  type TokenStatus,
  type TokenTone,
} from '~/shared/tokens';
import { LocalDate } from '../common/LocalDate';
import { KeyIcon, WarningIcon } from '../common/icons';

const TONE_CLASS: Record<TokenTone, string> = {
  error: 'text-error',
  warning: 'text-warning',
  success: 'text-success',
  neutral: 'opacity-50',
};

const BADGE_CLASS: Record<TokenState, string> = {
  valid: 'badge-success',
  expired: 'badge-error',
  'not-set': 'badge-ghost',
  loading: 'badge-ghost',
  refused: 'badge-error',
};

export function Card({
  title,
  icon,
  children,
}: {
  title: string;
  icon?: ReactNode;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <section className="surface rounded-box border border-base-300 p-5" aria-labelledby={titleId}>
      <div className="mb-4 flex items-center gap-3">
        {icon}
        <h2 id={titleId} className="text-lg font-semibold">
          {title}
        </h2>
      </div>
      {children}
    </section>
  );
}

export function Facts({ children }: { children: ReactNode }) {
  return <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">{children}</dl>;
}

export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="opacity-70">{label}</dt>
      <dd className="font-medium break-words">{children}</dd>
    </>
  );
}

interface TokenCardProps {
  which: 'access' | 'refresh';
  status: TokenStatus | null;
}

function TokenCard({ which, status }: TokenCardProps) {
  const facts = tokenFacts(status, which);
  const tone = tokenTone(facts);
  const expiry =
    status && facts?.present
      ? which === 'access'
        ? status.accessTokenExpiry
        : status.refreshTokenExpiry
      : null;
  return (
    <Card
      title={which === 'access' ? m.tokens_access_token() : m.tokens_refresh_token()}
      icon={
        <span className={TONE_CLASS[tone]} data-tone={tone} data-testid={`${which}-token-icon`}>
          <KeyIcon className="size-7" />
        </span>
      }
    >
      <Facts>
        <Fact label={m.tokens_fact_status()}>
          <span className={`badge badge-soft ${BADGE_CLASS[tokenState(facts)]}`}>
            {tokenStateLabel(facts)}
          </span>
        </Fact>
        <Fact label={m.tokens_fact_expires()}>
          <ExpiryDate present={Boolean(facts?.present)} expiry={expiry} />
        </Fact>
        <Fact label={m.tokens_fact_time_remaining()}>{timeRemainingText(facts)}</Fact>
      </Facts>
      {which === 'refresh' && hasUnknownRefreshExpiry(status) && (
        <div role="note" className="alert alert-warning alert-soft mt-4 items-start text-sm">
          <WarningIcon className="size-5 shrink-0" />
          <span>
            {CONNECTION_TEXTS.unknownRefreshExpiry} {CONNECTION_TEXTS.enterExpiryManually}
          </span>
        </div>
      )}
    </Card>
  );
}

export function TokenCards({ status }: { status: TokenStatus | null }) {
  return (
    <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
      <TokenCard which="access" status={status} />
      <TokenCard which="refresh" status={status} />
    </div>
  );
}

export function AdditionalInformation({ status }: { status: TokenStatus | null }) {
  return (
    <Card title={m.tokens_additional_information()}>
      <Facts>
        <Fact label={m.tokens_fact_source()}>
          {status?.source ? tokenSourceLabel(status.source) : m.tokens_unknown()}
        </Fact>
        <Fact label={m.tokens_fact_last_updated()}>
          {status?.lastUpdated ? (
            <LocalDate value={status.lastUpdated} withTime />
          ) : (
            m.tokens_unknown()
          )}
        </Fact>
        <Fact label={m.tokens_fact_auto_refresh()}>
          {status?.canRefresh ? m.tokens_available() : m.tokens_unavailable()}
        </Fact>
      </Facts>
    </Card>
  );
}

/** '—' without a token, 'Unknown' for a token whose expiry nobody told us. */
function ExpiryDate({ present, expiry }: { present: boolean; expiry: string | null }) {
  if (!present) return <>—</>;
  return expiry ? <LocalDate value={expiry} withTime /> : <>{m.tokens_unknown()}</>;
}
