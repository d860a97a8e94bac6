import { useState } from 'react';
import { Anchor, Image, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import type { MedicalFile } from '@dental/contracts';
import { ImageViewer, type ViewerItem } from '#web/components/image-viewer/image-viewer';
import { LoadFailed } from '#web/components/load-failed';
import { PageSpinner } from '#web/components/page-spinner';
import { useDocumentTitle } from '#web/lib/document-title';
import { photoLabel } from '#web/lib/photo-label';
import { patientsQuery, usePatientPhotos, usePatientRecords } from '../api/clinic-api';
import { clinicPaths } from '../paths';

const fileItem = (file: MedicalFile): ViewerItem => ({
  kind: file.content_type === 'application/pdf' ? 'pdf' : 'image',
  src: file.file_link,
  title: file.file_name,
});

function Photos({ patientId }: { patientId: string }) {
  const photos = usePatientPhotos(patientId);
  const [viewed, setViewed] = useState<number | null>(null);
  if (photos.isError) return <LoadFailed error={photos.error} onRetry={photos.refetch} />;
  if (photos.data === undefined) return <PageSpinner />;
  if (photos.data.length === 0) return <Text>No photos or X-rays shared.</Text>;
  return (
    <>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
        {photos.data.map((photo, index) => (
          <Paper key={photo.id} withBorder p="xs">
            <Stack gap={4}>
              <Image src={photo.thumbnail_link} alt="" h={120} fit="contain" />
              {/* A link-styled button: its label wraps in a narrow card, a Button's would be cut. */}
              <Anchor
                component="button"
                type="button"
                size="sm"
                fw={600}
                ta="center"
                onClick={() => {
                  setViewed(index);
                }}
              >
                View {photoLabel(photo)}
              </Anchor>
            </Stack>
          </Paper>
        ))}
      </SimpleGrid>
      <ImageViewer
        items={photos.data.map((photo) => ({
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
    </>
  );
}

function Records({ patientId }: { patientId: string }) {
  const records = usePatientRecords(patientId);
  const [viewed, setViewed] = useState<number | null>(null);
  if (records.isError) return <LoadFailed error={records.error} onRetry={records.refetch} />;
  if (records.data === undefined) return <PageSpinner />;
  if (records.data.length === 0) return <Text>No records shared.</Text>;
  const files = records.data.flatMap((record) => record.medical_files);
  return (
    <>
      <Stack gap="sm">
        {records.data.map((record) => (
          <Paper key={record.id} withBorder p="sm">
            <Stack gap={4}>
              <Text fw={600}>
                {record.title} · {record.record_date}
              </Text>
              {record.note !== '' && <Text size="sm">{record.note}</Text>}
              {record.medical_files.map((file) => (
                <Anchor
                  key={file.id}
                  component="button"
                  type="button"
                  size="sm"
                  fw={600}
                  ta="left"
                  onClick={() => {
                    setViewed(files.indexOf(file));
                  }}
                >
                  Open {file.file_name}
                </Anchor>
              ))}
            </Stack>
          </Paper>
        ))}
      </Stack>
      <ImageViewer
        items={files.map(fileItem)}
        index={viewed}
        onIndexChange={setViewed}
        onClose={() => {
          setViewed(null);
        }}
      />
    </>
  );
}

/** One patient's shared photos, X-rays and records, opened in the app's one image viewer. */
export default function PatientPage() {
  const { patientId = '' } = useParams();
  const patients = useQuery(patientsQuery);
  const name = patients.data?.results.find((patient) => patient.id === patientId)?.username;
  useDocumentTitle(name ?? 'Patient');
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={clinicPaths.patients} size="sm">
        All patients
      </Anchor>
      <Title order={1}>{name ?? 'Patient'}</Title>
      <Stack gap="sm" component="section" aria-labelledby="photos-heading">
        <Title order={2} size="h3" id="photos-heading">
          Photos and X-rays
        </Title>
        <Photos patientId={patientId} />
      </Stack>
      <Stack gap="sm" component="section" aria-labelledby="records-heading">
        <Title order={2} size="h3" id="records-heading">
          Records
        </Title>
        <Records patientId={patientId} />
      </Stack>
    </Stack>
  );
}
