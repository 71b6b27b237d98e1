// Placeholder lines that hold a card's height while its data loads (no layout jump).
export function SkeletonLines({ lines }: { lines: number }) {
  return (
    <div aria-hidden="true">
      {Array.from({ length: lines }, (_, i) => (
        <span key={i} className="skeleton" />
      ))}
    </div>
  );
}
