import { useState } from 'react';
import {
  Button,
  Group,
  NativeSelect,
  NumberInput,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { LoadFailed } from '#web/components/load-failed';
import { PageSpinner } from '#web/components/page-spinner';
import { useDocumentTitle } from '#web/lib/document-title';
import { practitionersQuery, useAvailability, useSaveAvailability } from '../api/clinic-api';
import { weekdays, type Availability, type Weekday } from '@dental/contracts';
import { useStaff } from '../console-gate';
import { tell } from '../components/tell';
import { Failure } from '../components/failure';

const dayNames: Record<Weekday, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

const timeZones = Intl.supportedValuesOf('timeZone');

interface Range {
  from: string;
  to: string;
}

const replaced = <Item,>(list: Item[], index: number, item: Item) =>
  list.map((old, at) => (at === index ? item : old));

/** One window of hours or days off: its two ends and Remove, each named for a screen reader
 *  ('Monday, hours 1, from'). */
function RangeRow({
  name,
  type,
  labels,
  range,
  onChange,
  onRemove,
}: {
  name: string;
  type: 'time' | 'date';
  labels: [string, string];
  range: Range;
  onChange: (range: Range) => void;
  onRemove: () => void;
}) {
  const [fromLabel, toLabel] = labels;
  return (
    <Group align="flex-end" gap="xs" wrap="wrap">
      <TextInput
        type={type}
        label={fromLabel}
        aria-label={`${name}, ${fromLabel.toLowerCase()}`}
        value={range.from}
        onChange={(event) => {
          onChange({ ...range, from: event.currentTarget.value });
        }}
      />
      <TextInput
        type={type}
        label={toLabel}
        aria-label={`${name}, ${toLabel.toLowerCase()}`}
        value={range.to}
        onChange={(event) => {
          onChange({ ...range, to: event.currentTarget.value });
        }}
      />
      <Button variant="subtle" color="red" aria-label={`Remove ${name}`} onClick={onRemove}>
        Remove
      </Button>
    </Group>
  );
}

function HoursForm({ practitionerId, saved }: { practitionerId: string; saved: Availability }) {
  const save = useSaveAvailability(practitionerId);
  const [timezone, setTimezone] = useState(saved.timezone);
  const [slotMinutes, setSlotMinutes] = useState<number | string>(saved.slot_minutes);
  const [weekly, setWeekly] = useState(saved.weekly);
  const [timeOff, setTimeOff] = useState(saved.time_off);

  const submit = () => {
    save.mutate(
      { timezone, slot_minutes: Number(slotMinutes), weekly, time_off: timeOff },
      {
        onSuccess: () => {
          tell('Your hours are saved. Patients can book them now.');
        },
      },
    );
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="lg">
        <Group align="flex-end" wrap="wrap">
          <NativeSelect
            label="Time zone"
            data={timeZones.includes(timezone) ? timeZones : [timezone, ...timeZones]}
            value={timezone}
            onChange={(event) => {
              setTimezone(event.currentTarget.value);
            }}
          />
          <NumberInput
            label="Slot length (minutes)"
            min={5}
            max={240}
            step={5}
            w={180}
            value={slotMinutes}
            onChange={setSlotMinutes}
          />
        </Group>

        <Stack gap="sm" component="section" aria-labelledby="weekly-heading">
          <Title order={2} size="h3" id="weekly-heading">
            Weekly hours
          </Title>
          <Text size="sm">Times are in the time zone above.</Text>
          {weekdays.map((day) => {
            const windows = weekly
              .map((window, index) => ({ window, index }))
              .filter(({ window }) => window.weekday === day);
            return (
              <Paper key={day} withBorder p="sm">
                <Stack gap="xs">
                  <Text fw={600}>{dayNames[day]}</Text>
                  {windows.length === 0 && (
                    <Text size="sm" c="dimmed">
                      Not working
                    </Text>
                  )}
                  {windows.map(({ window, index }, nth) => (
                    <RangeRow
                      key={index}
                      name={`${dayNames[day]}, hours ${String(nth + 1)}`}
                      type="time"
                      labels={['From', 'To']}
                      range={window}
                      onChange={(range) => {
                        setWeekly((current) => replaced(current, index, { ...window, ...range }));
                      }}
                      onRemove={() => {
                        setWeekly((current) => current.filter((_, at) => at !== index));
                      }}
                    />
                  ))}
                  <Button
                    variant="default"
                    size="xs"
                    w="fit-content"
                    onClick={() => {
                      setWeekly((current) => [
                        ...current,
                        { weekday: day, from: '09:00', to: '17:00' },
                      ]);
                    }}
                  >
                    Add hours on {dayNames[day]}
                  </Button>
                </Stack>
              </Paper>
            );
          })}
        </Stack>

        <Stack gap="sm" component="section" aria-labelledby="time-off-heading">
          <Title order={2} size="h3" id="time-off-heading">
            Time off
          </Title>
          <Text size="sm">Whole days, first and last included: no slots are offered on them.</Text>
          {timeOff.length === 0 && (
            <Text size="sm" c="dimmed">
              No time off planned.
            </Text>
          )}
          {timeOff.map((period, index) => (
            <RangeRow
              key={index}
              name={`Time off ${String(index + 1)}`}
              type="date"
              labels={['First day', 'Last day']}
              range={period}
              onChange={(range) => {
                setTimeOff((current) => replaced(current, index, range));
              }}
              onRemove={() => {
                setTimeOff((current) => current.filter((_, at) => at !== index));
              }}
            />
          ))}
          <Button
            variant="default"
            size="xs"
            w="fit-content"
            onClick={() => {
              const today = new Date().toISOString().slice(0, 10);
              setTimeOff((current) => [...current, { from: today, to: today }]);
            }}
          >
            Add time off
          </Button>
        </Stack>

        <Failure error={save.error} />
        <Button type="submit" loading={save.isPending} w="fit-content">
          Save hours
        </Button>
      </Stack>
    </form>
  );
}

function PractitionerHours({ practitionerId }: { practitionerId: string }) {
  const hours = useAvailability(practitionerId);
  if (hours.isError) return <LoadFailed error={hours.error} onRetry={hours.refetch} />;
  if (hours.data === undefined) return <PageSpinner />;
  return <HoursForm key={practitionerId} practitionerId={practitionerId} saved={hours.data} />;
}

/** An admin picks whose hours to keep; the practitioners' list is theirs to read. */
function AdminHours({ own }: { own: string | null }) {
  const list = useQuery(practitionersQuery);
  const [chosen, setChosen] = useState<string | null>(own);
  if (list.isError) return <LoadFailed error={list.error} onRetry={list.refetch} />;
  if (list.data === undefined) return <PageSpinner />;
  const active = list.data.results.filter((practitioner) => !practitioner.removed);
  const shown = chosen ?? active[0]?.id ?? null;
  return (
    <Stack gap="md">
      <NativeSelect
        label="Practitioner"
        maw={360}
        data={active.map((practitioner) => ({ value: practitioner.id, label: practitioner.name }))}
        value={shown ?? ''}
        onChange={(event) => {
          setChosen(event.currentTarget.value);
        }}
      />
      {shown === null ? (
        <Text>No practitioners yet.</Text>
      ) : (
        <PractitionerHours practitionerId={shown} />
      )}
    </Stack>
  );
}

/** Hours: the weekly windows per weekday in the practitioner's time zone, the slot length and
 *  days off; the patient's booking screen offers the new slots at once. */
export default function HoursPage() {
  useDocumentTitle('Hours');
  const staff = useStaff();
  return (
    <Stack gap="md">
      <Title order={1}>Hours</Title>
      {staff.role === 'clinic_admin' ? (
        <AdminHours own={staff.practitioner_id} />
      ) : staff.practitioner_id === null ? (
        <Text>Your account is not linked to a practitioner.</Text>
      ) : (
        <PractitionerHours practitionerId={staff.practitioner_id} />
      )}
    </Stack>
  );
}
