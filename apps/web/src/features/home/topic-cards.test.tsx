import { render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { plans } from '@dental/contracts';
import { TopicCardLink } from './topic-card-link';
import { isExternalLocation, topicCards } from './topic-cards';

describe('topic cards', () => {
  it('lists the seven topics of the Home screen with their exact names, targets and locks', () => {
    expect(topicCards.map(({ name, location, locked }) => [name, location, locked])).toEqual([
      ['X-rays and Photos Storage', '/oral-photo', true],
      ['Dental AI', '/dental-ai', true],
      ['Dental & Tx Knowledgement', '/dental-knowledge', false],
      ['Appointments Remind & History', '/appointments', false],
      ['Medical or Ins. Records Storage', '/medical-records', true],
      ['Oral Hyglene Suppliers Knowledgement', '/oral-supplier', false],
      ['Virtual Consultation', '/virtual-consultation', true],
    ]);
  });

  it.each([
    ['https://example.com/reserve', true],
    ['http://example.com', true],
    ['HTTPS://example.com', true],
    ['/oral-photo', false],
    ['oral-photo', false],
    ['//example.com', false],
    ['mailto:care@example.com', false],
    ['javascript:alert(1)', false],
    ['ftp://example.com', false],
    ['https:example.com', false],
  ])('treats %j as external: %s', (location, external) => {
    expect(isExternalLocation(location)).toBe(external);
  });

  it('opens an external location in a new tab without handing over this page', () => {
    render(
      <MemoryRouter>
        <ul>
          <TopicCardLink
            card={{
              key: 'reserve',
              name: 'Reservation',
              image: '/static/media/reserve.svg',
              location: 'https://example.com/reserve',
              locked: false,
            }}
          />
        </ul>
      </MemoryRouter>,
    );
    const link = screen.getByRole('link', { name: 'Reservation' });
    expect(link).toHaveAttribute('href', 'https://example.com/reserve');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('keeps an app location in the app and marks a locked card', () => {
    render(
      <MantineProvider>
        <MemoryRouter>
          <ul>
            <TopicCardLink card={topicCards[0]} plan={plans.Silver} />
          </ul>
        </MemoryRouter>
      </MantineProvider>,
    );
    const link = screen.getByRole('link', { name: 'X-rays and Photos Storage' });
    expect(link).toHaveAttribute('href', '/oral-photo');
    expect(link).not.toHaveAttribute('target');
    expect(link).toHaveAccessibleDescription('Silver: 1GB of storage for X-rays and records');
    expect(screen.getByText('Silver: 1GB of storage for X-rays and records')).toBeVisible();
  });

  it.each([
    ['Silver', 'X-rays and Photos Storage', 'Silver: 1GB of storage for X-rays and records', true],
    ['Gold', 'X-rays and Photos Storage', 'Gold: 5GB of storage for X-rays and records', false],
    ['Platinum', 'Dental AI', 'Platinum: 50 Dental AI uses a year', false],
    ['Silver', 'Virtual Consultation', 'Included in every plan', false],
  ] as const)('on %s, %s says %j, locked: %s', (plan, name, note, locked) => {
    const card = topicCards.find((topic) => topic.name === name);
    if (card === undefined) throw new Error(name);
    const { container } = render(
      <MantineProvider>
        <MemoryRouter>
          <ul>
            <TopicCardLink card={card} plan={plans[plan]} />
          </ul>
        </MemoryRouter>
      </MantineProvider>,
    );
    expect(screen.getByRole('link', { name })).toHaveAccessibleDescription(note);
    expect(container.querySelector('.tabler-icon-lock') !== null).toBe(locked);
  });
});
