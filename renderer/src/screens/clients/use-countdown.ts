// The countdown as React state: a one-second timer while time is left, stopped at zero (so an
// expired code costs nothing) and when the component goes away.
import { useEffect, useState } from 'react';
import { countdownAt, type Countdown } from './countdown';
import { browserNow } from '../../clock';

export function useCountdown(deadlineMs: number): Countdown {
  const [now, setNow] = useState(() => browserNow());
  useEffect(() => {
    setNow(browserNow());
    if (countdownAt(deadlineMs, browserNow()).expired) return undefined;
    const timer = setInterval(() => {
      const n = browserNow();
      setNow(n);
      if (countdownAt(deadlineMs, n).expired) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [deadlineMs]);
  return countdownAt(deadlineMs, now);
}
