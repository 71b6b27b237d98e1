// The task's event stream (GET /v1/tasks/{id}/events as SSE, signed in by the session header,
// api/event-stream.ts), folded into StreamState. It reconnects by itself and sends Last-Event-ID
// (the server writes `id: <sequence_number>`), so a reconnect resumes after the last event it saw;
// the reducer drops any repeat. Events are applied in small batches (one render per 50 ms, not one
// per token). After the terminal event the stream is closed: otherwise it would reconnect forever
// to a stream that has nothing more to say.
import { useEffect, useReducer, useRef, useState } from 'react';
import { openEventStream, parseFrame } from '../../api/event-stream';
import { TASK_EVENT_TYPES } from '../../../../src/contract/events';
import { changesState, initialStream, StreamEvent, streamReducer, TERMINAL_EVENTS, type StreamState } from './task-stream';

const EVENT_TYPES: readonly string[] = TASK_EVENT_TYPES;
const FLUSH_MS = 50;

export type StreamConnection = 'connecting' | 'open' | 'closed';

export function useTaskEvents(taskId: string, onStateChange: () => void): { stream: StreamState; connection: StreamConnection } {
  const [stream, dispatch] = useReducer(streamReducer, initialStream);
  const [connection, setConnection] = useState<StreamConnection>('connecting');
  const onChange = useRef(onStateChange);
  onChange.current = onStateChange;

  useEffect(() => {
    dispatch({ kind: 'reset' });
    setConnection('connecting');
    if (typeof fetch === 'undefined' || typeof ReadableStream === 'undefined') return undefined;
    const types = new Set(EVENT_TYPES);
    let pending: StreamEvent[] = [];
    let timer: ReturnType<typeof setTimeout> | null = null;
    const flush = () => {
      timer = null;
      const batch = pending;
      pending = [];
      dispatch({ kind: 'events', events: batch });
      if (batch.some((e) => changesState(e.type))) onChange.current();
    };
    const onEvent = (type: string, data: string) => {
      if (!types.has(type)) return;
      const event = parseFrame(data, StreamEvent);
      if (event === null) return;
      pending.push(event);
      if (TERMINAL_EVENTS.includes(event.type)) {
        source.close();
        setConnection('closed');
        if (timer !== null) clearTimeout(timer);
        flush();
        return;
      }
      timer ??= setTimeout(flush, FLUSH_MS);
    };
    const source = openEventStream(`/v1/tasks/${encodeURIComponent(taskId)}/events`, {
      onOpen: () => setConnection('open'),
      onEvent,
      onError: (closed) => setConnection(closed ? 'closed' : 'connecting'),
    });
    return () => {
      source.close();
      if (timer !== null) clearTimeout(timer);
    };
  }, [taskId]);

  return { stream, connection };
}
