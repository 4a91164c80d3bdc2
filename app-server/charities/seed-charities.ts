/** A charity as seeded: real organisations, with stable slugs as ids (they appear in events and ledgers). */
export type SeedCharity = {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly logoUrl: string | null;
  readonly websiteUrl: string;
};

/** The initial list; operators deactivate (never delete) a charity so past stakes keep their name. */
export const SEED_CHARITIES: readonly SeedCharity[] = [
  {
    id: 'givedirectly',
    name: 'GiveDirectly',
    description: 'Sends cash directly to people living in extreme poverty, no strings attached.',
    logoUrl: '/charities/givedirectly.svg',
    websiteUrl: 'https://www.givedirectly.org',
  },
  {
    id: 'against-malaria-foundation',
    name: 'Against Malaria Foundation',
    description: 'Funds long-lasting insecticidal nets that protect families from malaria.',
    logoUrl: '/charities/against-malaria-foundation.svg',
    websiteUrl: 'https://www.againstmalaria.com',
  },
  {
    id: 'feeding-america',
    name: 'Feeding America',
    description: 'A nationwide network of food banks fighting hunger in the United States.',
    logoUrl: '/charities/feeding-america.svg',
    websiteUrl: 'https://www.feedingamerica.org',
  },
  {
    id: 'doctors-without-borders',
    name: 'Doctors Without Borders',
    description: 'Médecins Sans Frontières: emergency medical care where it is needed most.',
    logoUrl: '/charities/doctors-without-borders.svg',
    websiteUrl: 'https://www.doctorswithoutborders.org',
  },
  {
    id: 'world-wildlife-fund',
    name: 'World Wildlife Fund',
    description: 'Conserves nature and protects endangered species and their habitats.',
    logoUrl: '/charities/world-wildlife-fund.svg',
    websiteUrl: 'https://www.worldwildlife.org',
  },
  {
    id: 'st-jude',
    name: "St. Jude Children's Research Hospital",
    description: 'Treats and researches childhood cancer; families never receive a bill.',
    logoUrl: '/charities/st-jude.svg',
    websiteUrl: 'https://www.stjude.org',
  },
  {
    id: 'helen-keller-intl',
    name: 'Helen Keller Intl',
    description: 'Vitamin A supplementation and eye health for vulnerable families.',
    logoUrl: '/charities/helen-keller-intl.svg',
    websiteUrl: 'https://helenkellerintl.org',
  },
  {
    id: 'girls-on-the-run',
    name: 'Girls on the Run',
    description: 'Running-based programmes that build confidence in girls aged 8 to 13.',
    logoUrl: '/charities/girls-on-the-run.svg',
    websiteUrl: 'https://www.girlsontherun.org',
  },
];
