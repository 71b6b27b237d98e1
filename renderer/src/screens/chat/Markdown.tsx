// A message's Markdown (markdown.ts) as React elements: text is always text (no HTML is ever
// injected), each block finds its own direction (an Arabic paragraph in an English reply reads right
// to left), code stays left to right with a copy button, and links open outside the GUI (the
// desktop shell hands them to the system browser through its URL policy; a browser opens a tab).
import { memo, useMemo, type ReactNode } from 'react';
import { CopyButton } from '../../components/CopyButton';
import { parseMarkdown, type Block, type Inline } from './markdown';

// A message's headings sit under the screen's own (h1) and the conversation's title (h2).
const HEADINGS = ['h3', 'h4', 'h5', 'h6', 'h6', 'h6'] as const;

function inlines(list: readonly Inline[]): ReactNode[] {
  return list.map((n, i) => {
    switch (n.kind) {
      case 'text':
        return n.text;
      case 'break':
        return <br key={i} />;
      case 'code':
        return (
          <code key={i} dir="ltr">
            {n.text}
          </code>
        );
      case 'strong':
        return <strong key={i}>{inlines(n.children)}</strong>;
      case 'em':
        return <em key={i}>{inlines(n.children)}</em>;
      case 'del':
        return <del key={i}>{inlines(n.children)}</del>;
      case 'link':
        return (
          <a key={i} href={n.href} target="_blank" rel="noopener noreferrer nofollow" referrerPolicy="no-referrer">
            {inlines(n.children)}
          </a>
        );
    }
  });
}

function blocks(list: readonly Block[], copyLabel: string): ReactNode[] {
  return list.map((b, i) => {
    switch (b.kind) {
      case 'paragraph':
        return (
          <p key={i} dir="auto">
            {inlines(b.inlines)}
          </p>
        );
      case 'heading': {
        const H = HEADINGS[b.level - 1] ?? 'h6';
        return (
          <H key={i} dir="auto" className="md-heading">
            {inlines(b.inlines)}
          </H>
        );
      }
      case 'code':
        return (
          <div key={i} className="md-code">
            <div className="md-code-bar">
              <span className="muted">{b.lang}</span>
              <CopyButton value={b.text} label={copyLabel} />
            </div>
            <pre dir="ltr" tabIndex={0}>
              <code>{b.text}</code>
            </pre>
          </div>
        );
      case 'quote':
        return (
          <blockquote key={i} dir="auto">
            {blocks(b.blocks, copyLabel)}
          </blockquote>
        );
      case 'list': {
        const items = b.items.map((item, j) => (
          <li key={j} dir="auto">
            {blocks(item, copyLabel)}
          </li>
        ));
        return b.ordered ? (
          <ol key={i} start={b.start}>
            {items}
          </ol>
        ) : (
          <ul key={i}>{items}</ul>
        );
      }
      case 'rule':
        return <hr key={i} />;
    }
  });
}

export const Markdown = memo(function Markdown({ text, copyLabel }: { text: string; copyLabel: string }) {
  const tree = useMemo(() => parseMarkdown(text), [text]);
  return <div className="md">{blocks(tree, copyLabel)}</div>;
});
