// The first minutes of a new data dir: a model to talk to, then what makes the data safe, in
// order, each with the button that does it (get a model, recovery kit, an offsite target, the first backup, the first drill). It shows
// until every item was done once (GET /admin/first-run) and then never again.
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod/v3';
import { api } from '../../api/http';
import { href } from '../../app/routes';
import { useStrings } from '../../i18n/i18n';
import { overviewStrings } from './strings';

export const FirstRun = z.object({
  model: z.boolean().default(true),
  kit: z.boolean(),
  offsite: z.boolean(),
  backup: z.boolean(),
  drill: z.boolean(),
  done: z.boolean(),
});

// Each step's own screen is where it is done (and where its progress shows).
const STEPS = [
  { key: 'model', screen: 'models' },
  { key: 'kit', screen: 'settings' },
  { key: 'offsite', screen: 'offsite' },
  { key: 'backup', screen: 'backups' },
  { key: 'drill', screen: 'drills' },
] as const;

export function FirstRunChecklist() {
  const { t } = useStrings(overviewStrings);
  // Kept fresh by the admin events that end each step (the query key starts with 'status').
  const first = useQuery({ queryKey: ['status', 'first-run', 'overview'], queryFn: () => api('GET', '/admin/first-run', FirstRun) });
  if (!first.data || first.data.done) return null;
  const items = first.data;
  return (
    <section className="card first-run" aria-labelledby="overview-first-run" data-testid="first-run">
      <h2 id="overview-first-run">{t('firstRunTitle')}</h2>
      <ol>
        {STEPS.map(({ key, screen }) => (
          <li key={key} data-step={key} data-done={items[key] ? 'yes' : 'no'} className={items[key] ? 'done' : undefined}>
            <span aria-hidden="true">{items[key] ? '✓' : '○'}</span> {t(`firstRun_${key}`)}{' '}
            {!items[key] && (
              <a className="button" href={href(screen)}>
                {t(`firstRunDo_${key}`)}
              </a>
            )}
            {items[key] && <span className="visually-hidden">{t('firstRunDone')}</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}
