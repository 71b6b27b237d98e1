// A name, an id or a path inside translated text: kept as it is (never translated, marked so for
// browsers' translators) and isolated, so a Latin name cannot reorder the Arabic around it.
import type { ReactNode } from 'react';

export function Verbatim({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <bdi className={className === undefined ? 'verbatim' : `verbatim ${className}`} translate="no">
      {children}
    </bdi>
  );
}
