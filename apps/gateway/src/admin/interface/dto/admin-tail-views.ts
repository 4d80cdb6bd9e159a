import { ApiProperty } from '@nestjs/swagger';
import { TailView } from '../../../tails/interface/dto/tail-views';

export class AdminTailsView {
  @ApiProperty({ type: [TailView], description: 'Views with every mapping; mappedId is null (an operator is no source).' }) items: TailView[];
}
