import { buildInfo, Public } from '@tailsync/service-kit';
import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { API_VERSION } from '@tailsync/contracts';

class BuildView {
  @ApiProperty({ example: '1.0.0', description: 'The release this gateway runs (semver; CHANGELOG.md)' })
  release: string;

  @ApiPropertyOptional({ type: String, nullable: true, example: '3f9c2e1d…', description: 'Source commit of the image; null outside one' })
  revision: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: '2026-11-26T12:00:00Z', description: 'When the image was built; null outside one' })
  created: string | null;

  @ApiProperty({ example: 'v24.21.0', description: 'The Node.js runtime' })
  node: string;
}

class VersionView {
  @ApiProperty({ example: API_VERSION, description: 'The interface version (also in X-Api-Version)' })
  version: string;

  @ApiProperty({ type: BuildView })
  build: BuildView;
}

@ApiTags('System')
@Public()
@Controller('Version')
export class VersionController {
  @Get()
  @ApiOkResponse({ type: VersionView })
  version(): VersionView {
    return { version: API_VERSION, build: buildInfo };
  }
}
