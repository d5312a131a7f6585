import type { UiCatalogue } from '../zh-CN';

const upload: UiCatalogue['upload'] = {
  imageBadType: 'Unsupported file format. Please upload a {types} image!',
  fileBadType: 'Unsupported file format. Please upload a {types} file!',
  imageTooLarge: 'The image must not be larger than {n} MB!',
  fileTooLarge: 'The file must not be larger than {n} MB!',
  tooMany: 'You can upload at most {limit} files!',
  imageFailed: 'Image upload failed, please try again',
  fileFailed: 'File upload failed, please try again',
  imageUploading: 'Uploading the image, please wait...',
  fileUploading: 'Uploading the file, please wait...',
  upload: 'Upload',
  selectFile: 'Choose file',
  tip: 'Files up to {n} MB, of type {types}',
  preview: 'Preview',
};
export default upload;
