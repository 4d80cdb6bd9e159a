import { Public } from '@tailsync/service-kit';
import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { API_VERSION } from '@tailsync/contracts';

class VersionView {
  @ApiProperty({ example: API_VERSION })
  version: string;
}

@ApiTags('System')
@Public()
@Controller('Version')
export class VersionController {
  @Get()
  @ApiOkResponse({ type: VersionView })
  version(): VersionView {
    return { version: API_VERSION };
  }
}
