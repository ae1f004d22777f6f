/** The Access Token and Refresh Token cards and the Additional Information card of spec "Token Management". */
import { useId, type ReactNode } from 'react';
import {
  CONNECTION_TEXTS,
  hasUnknownRefreshExpiry,
  timeRemainingText,
  tokenFacts,
  tokenStateLabel,
  tokenTone,
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

const BADGE_CLASS: Record<string, string> = {
  Valid: 'badge-success',
  Expired: 'badge-error',
  'Not Set': 'badge-ghost',
  'Loading...': 'badge-ghost',
  [CONNECTION_TEXTS.reconnectRequired]: 'badge-error',
};

function Card({ title, icon, children }: { title: string; icon?: ReactNode; children: ReactNode }) {
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

function Facts({ children }: { children: ReactNode }) {
  return <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">{children}</dl>;
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="opacity-70">{label}</dt>
      <dd className="font-medium break-words">{children}</dd>
    </>
  );
}

interface TokenCardProps {
  title: 'Access Token' | 'Refresh Token';
  status: TokenStatus | null;
}

function TokenCard({ title, status }: TokenCardProps) {
  const which = title === 'Access Token' ? 'access' : 'refresh';
  const facts = tokenFacts(status, which);
  const label = tokenStateLabel(facts);
  const tone = tokenTone(facts);
  const expiry = status && facts?.present ? (which === 'access' ? status.accessTokenExpiry : status.refreshTokenExpiry) : null;
  return (
    <Card
      title={title}
      icon={
        <span className={TONE_CLASS[tone]} data-tone={tone} data-testid={`${which}-token-icon`}>
          <KeyIcon className="size-7" />
        </span>
      }
    >
      <Facts>
        <Fact label="Status">
          <span className={`badge badge-soft ${BADGE_CLASS[label]}`}>{label}</span>
        </Fact>
        <Fact label="Expires">
          <ExpiryDate present={Boolean(facts?.present)} expiry={expiry} />
        </Fact>
        <Fact label="Time Remaining">{timeRemainingText(facts)}</Fact>
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
    <div className="grid gap-4 md:grid-cols-2">
      <TokenCard title="Access Token" status={status} />
      <TokenCard title="Refresh Token" status={status} />
    </div>
  );
}

export function AdditionalInformation({ status }: { status: TokenStatus | null }) {
  return (
    <Card title="Additional Information">
      <Facts>
        <Fact label="Source">{status?.source ?? 'Unknown'}</Fact>
        <Fact label="Last Updated">
          {status?.lastUpdated ? <LocalDate value={status.lastUpdated} withTime /> : 'Unknown'}
        </Fact>
        <Fact label="Auto-Refresh">{status?.canRefresh ? 'Available' : 'Unavailable'}</Fact>
      </Facts>
    </Card>
  );
}

/** '—' without a token, 'Unknown' for a token whose expiry nobody told us. */
function ExpiryDate({ present, expiry }: { present: boolean; expiry: string | null }) {
  if (!present) return <>—</>;
  return expiry ? <LocalDate value={expiry} withTime /> : <>Unknown</>;
}
