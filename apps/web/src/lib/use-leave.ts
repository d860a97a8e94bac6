import { useLocation, useNavigate } from 'react-router';

/** Leaves a form without saving: back to where the member came from, or to `fallback` (the
 *  screen's list) when the form was opened directly and there is no page of ours to go back to. */
export function useLeave(fallback: string): () => void {
  const navigate = useNavigate();
  // React Router gives the first entry of a session the key 'default'.
  const opened = useLocation().key === 'default';
  return () => {
    void (opened ? navigate(fallback) : navigate(-1));
  };
}
