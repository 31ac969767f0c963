import { describeConsoleOverview, startEmbeddedSystem } from '@igw/testing';

// Also writes docs/images/console-overview.png, the README's screenshot.
describeConsoleOverview('embedded', () => startEmbeddedSystem());
