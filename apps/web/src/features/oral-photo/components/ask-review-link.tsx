import { Button } from '@mantine/core';
import { Link } from 'react-router';
import type { OralPhoto } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { useReadOnlyRecord } from '#web/lib/viewed-record';

/** 'Ask a dentist to review' for one photo (docs/product/photo-reviews.md#asking), named by
 *  `label` for screen readers; not offered on another member's record. */
export function AskReviewLink({ photo, label }: { photo: OralPhoto; label: string }) {
  const readOnly = useReadOnlyRecord();
  if (readOnly) return null;
  return (
    <Button
      component={Link}
      to={paths.reviewAsk({ photo: photo.id })}
      variant="default"
      size="xs"
      aria-label={`Ask a dentist to review ${label}`}
    >
      Ask a dentist to review
    </Button>
  );
}
