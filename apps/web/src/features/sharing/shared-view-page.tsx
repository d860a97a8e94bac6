import { useState, type SyntheticEvent } from 'react';
import {
  Button,
  Group,
  List,
  Paper,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import dayjs from 'dayjs';
import {
  problemTypes,
  reportKindNames,
  shareLinkPaths,
  sharePasscodeHeader,
  sharedItems,
  type OralPhoto,
  type SharedItems,
} from '@dental/contracts';
import { DentalAiResults } from '#web/components/dental-ai-findings';
import { FileRow, viewerItemOf } from '#web/components/file-row';
import { ImageViewer } from '#web/components/image-viewer/image-viewer';
import { LoadFailed } from '#web/components/load-failed';
import { PageSpinner } from '#web/components/page-spinner';
import { PublicPage } from '#web/components/public-page';
import { ApiError, apiRequest } from '#web/lib/api-client';
import { dateFormat } from '#web/lib/dates';
import { photoLabel } from '#web/lib/photo-label';
import classes from './shared-view-page.module.css';

/** Kept out of search engines and referrers, also for crawlers that read the page's HTML. */
function NoIndex() {
  return (
    <>
      <meta name="robots" content="noindex, nofollow" />
      <meta name="referrer" content="no-referrer" />
    </>
  );
}

function PasscodeForm({
  error,
  pending,
  onSubmit,
}: {
  error: string | null;
  pending: boolean;
  onSubmit: (passcode: string) => void;
}) {
  const [value, setValue] = useState('');
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    if (value !== '') onSubmit(value);
  };
  return (
    <form noValidate onSubmit={submit}>
      <Stack gap="sm">
        <Text>
          The person who shared this protected it with a passcode. They will have told you the
          passcode separately.
        </Text>
        <PasswordInput
          label="Passcode"
          autoComplete="off"
          autoFocus
          value={value}
          error={error}
          onChange={(event) => {
            setValue(event.currentTarget.value);
          }}
        />
        <Button type="submit" loading={pending} style={{ alignSelf: 'flex-end' }}>
          Open
        </Button>
      </Stack>
    </form>
  );
}

function Photos({ photos }: { photos: OralPhoto[] }) {
  const [viewed, setViewed] = useState<number | null>(null);
  return (
    <section aria-labelledby="shared-photos">
      <Title order={2} size="h3" id="shared-photos" mb="sm">
        X-rays and photos
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm">
        {photos.map((photo, index) => (
          <Paper key={photo.id} withBorder p="xs">
            <Stack gap={6}>
              <UnstyledButton
                onClick={() => {
                  setViewed(index);
                }}
                aria-label={`View ${photoLabel(photo)} full screen`}
              >
                <img src={photo.thumbnail_link} alt="" className={classes.thumb} />
              </UnstyledButton>
              <Text fw={600}>{photoLabel(photo)}</Text>
              {photo.note !== '' && (
                <Text size="sm" className={classes.note}>
                  {photo.note}
                </Text>
              )}
              <Group gap="xs">
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => {
                    setViewed(index);
                  }}
                >
                  View
                </Button>
                <Button
                  component="a"
                  href={photo.image_link}
                  download
                  size="xs"
                  variant="default"
                  aria-label={`Download ${photoLabel(photo)}`}
                >
                  Download
                </Button>
              </Group>
            </Stack>
          </Paper>
        ))}
      </SimpleGrid>
      <ImageViewer
        items={photos.map((photo) => ({
          kind: 'image',
          src: photo.image_link,
          title: photoLabel(photo),
        }))}
        index={viewed}
        onIndexChange={setViewed}
        onClose={() => {
          setViewed(null);
        }}
      />
    </section>
  );
}

function Records({ records }: { records: SharedItems['records'] }) {
  const [viewed, setViewed] = useState<number | null>(null);
  const files = records.flatMap((record) => record.medical_files);
  const items = files.map(viewerItemOf);
  return (
    <section aria-labelledby="shared-records">
      <Title order={2} size="h3" id="shared-records" mb="sm">
        Records
      </Title>
      <Stack gap="sm">
        {records.map((record) => (
          <Paper key={record.id} withBorder p="sm">
            <Stack gap={6}>
              <Group gap="xs" wrap="wrap">
                <Title order={3} size="h5" className={classes.note}>
                  {record.title}
                </Title>
                <Text c="dimmed">{record.record_date}</Text>
              </Group>
              {record.note !== '' && (
                <Text size="sm" className={classes.note}>
                  {record.note}
                </Text>
              )}
              {record.medical_files.length === 0 ? (
                <Text size="sm" c="dimmed">
                  No files attached.
                </Text>
              ) : (
                <List listStyleType="none" spacing="xs" aria-label={`Files of ${record.title}`}>
                  {record.medical_files.map((file) => (
                    <List.Item key={file.id}>
                      <FileRow
                        file={file}
                        onOpen={() => {
                          setViewed(files.indexOf(file));
                        }}
                      />
                    </List.Item>
                  ))}
                </List>
              )}
            </Stack>
          </Paper>
        ))}
      </Stack>
      <ImageViewer
        items={items}
        index={viewed}
        onIndexChange={setViewed}
        onClose={() => {
          setViewed(null);
        }}
      />
    </section>
  );
}

/** Each report by its kind and period, with its PDF to download through the share. */
function Reports({ reports }: { reports: SharedItems['reports'] }) {
  return (
    <section aria-labelledby="shared-reports">
      <Title order={2} size="h3" id="shared-reports" mb="sm">
        Reports
      </Title>
      <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
        {reports.map((report) => {
          const name = reportKindNames[report.kind];
          return (
            <Paper component="li" key={report.id} withBorder p="sm">
              <Group justify="space-between" gap="xs">
                <Stack gap={2}>
                  <Title order={3} size="h5">
                    {name}
                  </Title>
                  <Text size="sm">
                    {report.from} to {report.to}
                  </Text>
                </Stack>
                <Button
                  component="a"
                  href={report.download_url}
                  download
                  size="xs"
                  aria-label={`Download the ${name.toLowerCase()}, ${report.from} to ${report.to} (PDF)`}
                >
                  Download PDF
                </Button>
              </Group>
            </Paper>
          );
        })}
      </Stack>
    </section>
  );
}

function Shared({ shared }: { shared: SharedItems }) {
  const nothing =
    shared.photos.length === 0 &&
    shared.records.length === 0 &&
    shared.dental_ai.length === 0 &&
    shared.reports.length === 0;
  return (
    <Stack gap="lg">
      <Text>
        Shared with you through Dental Companion, to look at and download until{' '}
        {dayjs(shared.expires_at).format(`${dateFormat} HH:mm`)}. The person who shared it can see
        when it is opened.
      </Text>
      {nothing && <Text c="dimmed">Nothing is shared here any more.</Text>}
      {shared.photos.length > 0 && <Photos photos={shared.photos} />}
      {shared.records.length > 0 && <Records records={shared.records} />}
      {shared.dental_ai.length > 0 && (
        <DentalAiResults results={shared.dental_ai} heading="Dental AI results" order={2} />
      )}
      {shared.reports.length > 0 && <Reports reports={shared.reports} />}
    </Stack>
  );
}

/**
 * A share link's page for its recipient, without an account (docs/product/sharing.md): the
 * label, until when it works, the photos in the app's viewer, the records with their files, the
 * Dental AI results with their boxes, plain words and disclaimer, and the reports to download;
 * a passcode form when the link has one; a plain page when it no longer works. Each load is one
 * opening the owner sees, so it is not refetched in the background.
 */
export default function SharedViewPage() {
  const { token = '' } = useParams();
  const [passcode, setPasscode] = useState<string | null>(null);
  const shared = useQuery({
    queryKey: ['shared', token, passcode],
    queryFn: () =>
      apiRequest(shareLinkPaths.shared(token), sharedItems, {
        auth: false,
        ...(passcode === null ? {} : { headers: { [sharePasscodeHeader]: passcode } }),
      }),
    retry: false,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  const error = shared.error instanceof ApiError ? shared.error : null;

  if (shared.isSuccess) {
    return (
      <PublicPage title={shared.data.label} wide>
        <NoIndex />
        <Shared shared={shared.data} />
      </PublicPage>
    );
  }
  const asksPasscode =
    error !== null && (error.type === problemTypes.sharePasscode || error.status === 429);
  if (asksPasscode || (shared.isPending && passcode !== null)) {
    return (
      <PublicPage title="Enter the passcode">
        <NoIndex />
        <PasscodeForm
          // The first answer only says a passcode is needed; later ones say why it failed.
          error={passcode !== null && error !== null ? error.detail : null}
          pending={shared.isFetching}
          onSubmit={(value) => {
            if (value === passcode) void shared.refetch();
            else setPasscode(value);
          }}
        />
      </PublicPage>
    );
  }
  if (shared.isPending) {
    return (
      <PublicPage title="Shared with you">
        <NoIndex />
        <PageSpinner />
      </PublicPage>
    );
  }
  if (error?.status === 404) {
    return (
      <PublicPage title="This link no longer works">
        <NoIndex />
        <Stack gap="sm">
          <Text>
            The link may have been revoked by the person who shared it, it may have expired, or it
            may have been copied incompletely.
          </Text>
          <Text>Nothing is shown here. Please ask them for a new link.</Text>
        </Stack>
      </PublicPage>
    );
  }
  return (
    <PublicPage title="Shared with you">
      <NoIndex />
      <LoadFailed error={shared.error} onRetry={shared.refetch} />
    </PublicPage>
  );
}
