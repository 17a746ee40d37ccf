import { CopyButton } from './copy-button';

/** The id the server logged a failure under, to quote when reporting it. */
export function RequestId({ id }: { id: string }) {
  return (
    <span className="request-id small muted" data-testid="request-id">
      Request ID <code>{id}</code> <CopyButton text={id} label="Copy ID" />
    </span>
  );
}

