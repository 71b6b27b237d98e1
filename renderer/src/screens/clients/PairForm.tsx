// Making a pairing code: permissions, how long the code lives, then the code itself.
import { useState } from 'react';
import { ErrorNote } from '../../components/ErrorNote';
import { formatNumber } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { useMakePairingCode, type Scope } from './api';
import { PairingCode } from './PairingCode';
import { ScopePicker } from './ScopePicker';
import { clientStrings } from './strings';

const TTL_MINUTES = [5, 10, 30, 60] as const;

export function PairForm() {
  const { t, language } = useStrings(clientStrings);
  const make = useMakePairingCode();
  const [scopes, setScopes] = useState<Scope[]>(['models:read', 'responses:write']);
  const [minutes, setMinutes] = useState<number>(10);
  return (
    <section className="card" aria-labelledby="pair-title">
      <h2 id="pair-title">{t('pairTitle')}</h2>
      <p className="muted">{t('pairHelp')}</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          make.mutate({ scopes, ttlS: minutes * 60 });
        }}
      >
        <ScopePicker value={scopes} onChange={setScopes} testId="pair-scopes" />
        <label htmlFor="pair-ttl">{t('ttl')}</label>
        <select id="pair-ttl" value={minutes} onChange={(e) => setMinutes(Number(e.target.value))}>
          {TTL_MINUTES.map((m) => (
            <option key={m} value={m}>
              {formatNumber(language, m, { style: 'unit', unit: 'minute', unitDisplay: 'long' })}
            </option>
          ))}
        </select>
        <div className="row pair-actions">
          <button type="submit" className="primary" disabled={scopes.length === 0 || make.isPending} aria-busy={make.isPending} data-testid="pair-make">
            {t('makeCode')}
          </button>
        </div>
      </form>
      {make.isError && <ErrorNote error={make.error} />}
      {make.data && <PairingCode key={make.data.code} code={make.data.code} deadlineMs={make.data.deadlineMs} lan={make.data.lan} />}
    </section>
  );
}
