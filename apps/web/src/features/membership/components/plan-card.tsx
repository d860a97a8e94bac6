import { useId } from 'react';
import { Badge, Button, Group, Paper, Table, Text, Title } from '@mantine/core';
import type { CurrentPlan, Plan } from '@dental/contracts';
import { planEndText } from '#web/lib/current-plan';
import { planRows } from '../plan-rows';
import classes from './plan-card.module.css';

export interface PlanCardProps {
  plan: Plan;
  /** Set on the member's own plan: the card is marked and says when it ends. */
  current?: CurrentPlan | undefined;
  disabled: boolean;
  loading: boolean;
  onChoose: () => void;
}

/** One plan (docs/product/membership.md#plans) with its 'Choose Plan' button. */
export function PlanCard({ plan, current, disabled, loading, onChoose }: PlanCardProps) {
  const headingId = useId();
  return (
    <Paper
      component="section"
      withBorder
      p="md"
      aria-labelledby={headingId}
      className={current ? classes.current : undefined}
    >
      <Group justify="space-between" mb="sm" gap="xs">
        <Title order={2} size="h3" id={headingId}>
          {plan.name}
        </Title>
        {current && <Badge>Your plan</Badge>}
      </Group>
      {current && (
        <Text size="sm" mb="sm">
          {planEndText(current)}
        </Text>
      )}
      <Table variant="vertical" layout="fixed" withRowBorders mb="md">
        <Table.Tbody>
          {planRows(plan).map((row) => (
            <Table.Tr key={row.label}>
              <Table.Th scope="row">{row.label}</Table.Th>
              <Table.Td>{row.value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Button
        fullWidth
        disabled={disabled}
        loading={loading}
        onClick={onChoose}
        aria-label={`Choose Plan ${plan.name}`}
      >
        Choose Plan
      </Button>
    </Paper>
  );
}
