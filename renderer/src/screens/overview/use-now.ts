// The current time in Unix seconds, moving once a minute so ages ("3 hours ago", "older than the
// target") stay true while the screen is open. A display clock, not a fetch.
import { useEffect, useState } from 'react';
import { browserNow } from '../../clock';

export function useNowSeconds(stepMs = 60_000): number {
  const [now, setNow] = useState(() => Math.floor(browserNow() / 1000));
  useEffect(() => {
    const timer = setInterval(() => setNow(Math.floor(browserNow() / 1000)), stepMs);
    return () => clearInterval(timer);
  }, [stepMs]);
  return now;
}
